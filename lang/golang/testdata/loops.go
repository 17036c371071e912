package p

func loops(items []string, ch chan int, n int) (total int) {
	for i := 0; i < n; i++ {
		total += i
	}
	for total < 100 {
		total *= 2
	}
	for k, v := range items {
		use(k, v)
	}
	var key string
	for key = range m {
	}
	for range ch {
		total--
	}
	for i := range 10 {
		total += i
	}
outer:
	for _, it := range items {
		for j := 0; j < len(it); j++ {
			if it[j] == ' ' {
				continue outer
			}
			if it[j] == '.' {
				break outer
			}
		}
	}
	for {
		if total > n {
			break
		}
		total++
	}
	return total + len(key)
}
