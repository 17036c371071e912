/** The settings. */
export const settings = { debug: false };
