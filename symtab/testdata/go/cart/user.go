package cart

// User owns carts.
type User struct {
	Name string
}

// Greet greets.
func (u User) Greet() string { return "hi " + u.Name }
