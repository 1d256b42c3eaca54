package pipeline

import (
	"strconv"
	"strings"
)

// FormatFloat writes a number the way reasons and notes print it: the
// shortest form that reads back exactly, with ".0" on whole numbers ("540.0",
// "43.2"), so a reason reads the same whichever surface shows it.
func FormatFloat(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
