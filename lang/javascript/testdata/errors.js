function broken(x) {
  const y = x +;
  if (y > {
    return y;
  }
}
const ok = 1;
