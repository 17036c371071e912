package p

func switches(x interface{}, ch chan int, done chan struct{}) int {
	switch n := count(x); {
	case n > 10:
		return n
	case n > 5:
		n++
		fallthrough
	case n > 1:
		log(n)
	default:
		n = 0
	}
	switch y := x.(type) {
	case int, int64:
		return int(y.(int))
	case string:
		log(y)
	case nil:
	}
	for {
		select {
		case v, ok := <-ch:
			if !ok {
				return -1
			}
			log(v)
		case ch <- 1:
			break
		case <-done:
			return 0
		}
	}
}
