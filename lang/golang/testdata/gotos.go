package p

func retry(n int) error {
	i := 0
again:
	err := try(i)
	if err != nil {
		i++
		if i < n {
			goto again
		}
		goto fail
	}
	return nil
fail:
	return err
}

func labeledSwitch(xs []int) {
loop:
	for _, x := range xs {
		switch {
		case x < 0:
			break loop
		case x == 0:
			continue loop
		}
	sel:
		select {
		default:
			break sel
		}
	}
}
