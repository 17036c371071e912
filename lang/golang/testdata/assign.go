package p

func assign(p *Point, xs []int, m map[string]int, key string) {
	a, b := 1, 2
	a, b = b, a
	a += b
	b--
	p.X = a
	p.next.Y += b
	xs[a] = b
	m[key] = len(xs)
	*p = Point{X: a, Y: b}
	q := &Point{X: p.Y}
	counts := map[string]int{key: a, "lit": b}
	pts := []Point{{X: a}, {Y: b}}
	f().field = 3
	(a) = 4
	_ = q
	_, _ = counts, pts
	ch <- a
	v := <-ch
	s := xs[a:b]
	t := p.(fmt.Stringer).String()
	u := []byte(key)
	use(v, s, t, u)
}
