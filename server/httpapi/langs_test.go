package httpapi

import _ "github.com/graphcoder/graphcoder/lang/python" // registers Python
