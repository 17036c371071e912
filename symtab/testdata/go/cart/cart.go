// Package cart holds carts.
package cart

import "example.com/shop/store"

// Cart is a cart.
type Cart struct {
	store.Base
	items []string
	owner *User
}

// New makes a cart.
func New() *Cart { return &Cart{} }
