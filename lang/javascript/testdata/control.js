function control(xs, limit) {
  if (!xs) return null;
  else if (xs.length === 0) throw new Error("empty");
  else {
    limit = Math.min(limit, xs.length);
  }
  let total = 0;
  outer: for (let i = 0; i < xs.length; i++) {
    for (const key in xs[i]) {
      if (key === "skip") continue outer;
      if (key === "stop") break outer;
      total += xs[i][key];
    }
  }
  for (const x of xs) total -= x;
  while (total > limit) {
    total--;
  }
  do {
    total++;
  } while (total < 0);
  switch (total) {
    case 0:
    case 1:
      total = 10;
    case 2:
      total *= 2;
      break;
    default:
      total = -1;
  }
  try {
    risky(total);
  } catch (err) {
    log(err.message);
  } finally {
    cleanup();
  }
  block: {
    if (total) break block;
    total = 1;
  }
  while (true) {
    if (ready()) break;
  }
  return total;
}
