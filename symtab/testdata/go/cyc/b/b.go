package b

import . "example.com/shop/cyc/a"

var B = A
