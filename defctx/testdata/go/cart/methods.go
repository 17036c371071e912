package cart

// Add adds an item.
func (c *Cart) Add(item string) *Cart {
	c.items = append(c.items, item)
	return c
}

// Total counts the items.
func (c *Cart) Total() int {
	n := len(c.items)
	c.Owner.Greet()
	return n
}

// Greet greets.
func (u *User) Greet() string { return "hi " + u.Name }
