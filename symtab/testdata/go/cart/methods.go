package cart

// Add adds an item.
func (c *Cart) Add(item string) *Cart {
	c.items = append(c.items, item)
	return c
}

// Total counts.
func (c *Cart) Total() int { return len(c.items) }

func use() { New() }
