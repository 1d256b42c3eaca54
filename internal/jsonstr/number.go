package jsonstr

// IntegerEnd returns the index after the JSON integer -?(0|[1-9][0-9]*)
// that starts at b[i], what json.Marshal writes for an int; ok is false
// when none starts there. A leading zero ends the integer: "012" reads as
// "0" followed by something the caller must refuse, as encoding/json does.
func IntegerEnd(b []byte, i int) (end int, ok bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		return i + 1, true
	}
	j := digitsEnd(b, i)
	return j, j > i
}

// NumberEnd returns the index after the JSON number
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? that starts at b[i]; ok
// is false when none starts there or a fraction or exponent has no digits.
func NumberEnd(b []byte, i int) (end int, ok bool) {
	i, ok = IntegerEnd(b, i)
	if !ok {
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digitsEnd(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digitsEnd(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digitsEnd(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
