package lsp

import (
	_ "github.com/graphcoder/graphcoder/lang/golang"     // registers Go
	_ "github.com/graphcoder/graphcoder/lang/java"       // registers Java
	_ "github.com/graphcoder/graphcoder/lang/javascript" // registers JavaScript
	_ "github.com/graphcoder/graphcoder/lang/python"     // registers Python
	_ "github.com/graphcoder/graphcoder/lang/typescript" // registers TypeScript
)
