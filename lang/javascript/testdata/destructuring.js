const { a, b: renamed, c = 1, ...others } = config;
let [first, , third = first, ...tail] = list;
var { nested: { deep }, [key]: computed } = obj;
({ a, b } = other);
[first, third] = [third, first];
[this.x, arr[i]] = pair;
for (const [k, v] of Object.entries(obj)) {
  use(k, v);
}
try {
  run();
} catch ({ message, code = 500 }) {
  report(message, code);
}
function f({ x, y } = {}, [z] = []) {
  return x + y + z;
}
