// Package cart holds carts.
package cart

// Cart is a cart.
type Cart struct {
	items []string
	Owner *User
}

// New makes a cart.
func New(owner *User) *Cart { return &Cart{Owner: owner} }

// User owns carts.
type User struct {
	Name string
}
