/** Helps. */
export function helper() {}

export class Widget extends Component {
  count = 0;
  render() {}
}
