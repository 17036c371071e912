function add(a, b = 1, ...rest) {
  return a + b + rest.length;
}

const double = (x) => x * 2;
const square = x => {
  const y = x * x;
  return y;
};

export const load = async function loader(url, { retries = 3 } = {}) {
  const res = await fetch(url);
  return res.json();
};

function* range(n) {
  for (let i = 0; i < n; i++) {
    yield i;
  }
}

async function* lines(stream) {
  for await (const chunk of stream) {
    yield* chunk.split("\n");
  }
}

items.forEach((item, i) => {
  console.log(i, item);
});
const handlers = { onClick(e) { e.preventDefault(); }, onKey: (e) => e.key };
