package p

func classify(n int, m map[string]int) string {
	if n < 0 {
		return "negative"
	} else if n == 0 {
		n = 1
	} else {
		log(n)
	}
	if v, ok := m["k"]; ok && v > n {
		return "big"
	}
	if err := check(n); err != nil {
		panic(err)
	}
	return "other"
}
