package a

import . "example.com/shop/cyc/b"

var A = B
