package policy

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// isPySpace is Python's str.isspace for the code points that can survive
// NFKC and the Cc/Cf strip; trimming must match str.strip() or " Prod\u1680"
// would fold differently here and in the reference.
func isPySpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, 0x85, 0xa0, 0x1680,
		0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

func isASCIIPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// prefold is the fold without the casefold: NFKC, drop Cc/Cf, Python strip.
// The verb splitter needs it because camelCase boundaries are read before
// case is folded away.
func prefold(s string) string {
	if !isASCIIPlain(s) {
		s = norm.NFKC.String(s)
		s = strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) {
				return -1
			}
			return r
		}, s)
	}
	return strings.TrimFunc(s, isPySpace)
}

// Fold is the token fold of spec §1.2: NFKC, strip Cc/Cf, trim as Python's
// str.strip, full Unicode casefold (ß -> ss).
func Fold(s string) string { return casefold(prefold(s)) }

func casefold(s string) string {
	ascii := true
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			ascii = false
			break
		}
		if c >= 'A' && c <= 'Z' {
			upper = true
		}
	}
	if ascii {
		if !upper {
			return s
		}
		return strings.ToLower(s)
	}
	// cases.Caser is stateful, so one per call (it is cheap and only the
	// non-ASCII path gets here).
	return cases.Fold().String(s)
}

// envAliases maps a folded environment to its canonical value; anything
// else is production (the most guarded).
var envAliases = map[string]string{
	"production": "production", "prod": "production", "prods": "production", "prd": "production", "live": "production",
	"staging": "staging", "stage": "staging", "stg": "staging",
	"dev": "dev", "development": "dev", "develop": "dev", "test": "dev", "testing": "dev",
}

// canonEnv returns the canonical environment and whether the folded value
// was a known alias (declared).
func canonEnv(raw string) (string, bool) {
	if v, ok := envAliases[Fold(raw)]; ok {
		return v, true
	}
	return "production", false
}

var verbTable = buildVerbTable()

func buildVerbTable() map[string]string {
	groups := map[string]string{
		"read":     "read list get query search describe inspect select fetch view show head index count exists stat ls cat find scan lookup retrieve download export check status diff log ping heartbeat healthcheck",
		"create":   "create insert add new make register provision upload import mkdir clone copy duplicate generate issue mint post attach react like upvote downvote vote star bookmark favorite follow annotate note rate",
		"update":   "update modify edit patch change set rename move alter upsert replace put write configure enable disable toggle assign grant tag label publish_draft approve merge acknowledge mark_read pin watch subscribe_topic",
		"delete":   "delete remove destroy drop truncate purge erase wipe del rm rmdir unlink expunge clear flush evict prune obliterate nuke shred discard trash revoke deprovision terminate kill teardown destroy_all hard_delete soft_delete bulk_delete delete_all delete_many batch_delete mass_delete force_delete uninstall deregister detach unpublish unset format",
		"execute":  "execute exec run invoke call trigger deploy apply start restart stop launch schedule spawn rollout rollback migrate build compile sync reindex",
		"transact": "transact pay payment refund charge transfer withdraw deposit purchase buy sell invoice settle sign subscribe chargeback payout capture",
		"emit":     "emit send publish notify email mail message broadcast dispatch share tweet webhook sms push announce forward reply post_message comment",
	}
	t := map[string]string{}
	for canon, words := range groups {
		for _, w := range strings.Fields(words) {
			t[w] = canon
		}
	}
	return t
}

// Verbs is the closed canonical verb set.
var Verbs = []string{"read", "create", "update", "delete", "execute", "transact", "emit"}

func isVerbSep(r rune) bool {
	switch r {
	case ' ', '-', '.', '/', ':', '\\', '\t':
		return true
	}
	return false
}

// splitWords splits a prefolded token on the separators and on camelCase
// boundaries (lower->upper, digit->upper), folding each word; empty words
// are dropped.
func splitWords(s string, dst []string) []string {
	start := 0
	var prev byte
	flush := func(end int) {
		if end > start {
			dst = append(dst, casefold(s[start:end]))
		}
	}
	for i, r := range s {
		if isVerbSep(r) {
			flush(i)
			start = i + utf8.RuneLen(r)
			prev = 0
			continue
		}
		if r >= 'A' && r <= 'Z' && ((prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9')) {
			flush(i)
			start = i
		}
		if r < utf8.RuneSelf {
			prev = byte(r)
		} else {
			prev = 0
		}
	}
	flush(len(s))
	return dst
}

// canonVerb maps a raw verb to the closed set. hit reports whether a lookup
// key matched (declared); otherwise the fallback is delete for an
// irreversible action and update for anything else, never read.
func canonVerb(raw, reversibility string) (verb string, hit bool) {
	pre := prefold(raw)
	if v, ok := verbTable[casefold(pre)]; ok {
		return v, true
	}
	var buf [8]string
	words := splitWords(pre, buf[:0])
	if len(words) > 0 {
		if v, ok := verbTable[strings.Join(words, "_")]; ok {
			return v, true
		}
		if v, ok := verbTable[strings.Join(words, "")]; ok {
			return v, true
		}
		if len(words) >= 2 {
			if v, ok := verbTable[words[0]]; ok {
				return v, true
			}
		}
	}
	if reversibility == "irreversible" {
		return "delete", false
	}
	return "update", false
}

// abilityIsDelete is the ability cross-check: the first word of the part
// after the last '/' names a delete.
func abilityIsDelete(ability string) bool {
	if i := strings.LastIndexByte(ability, '/'); i >= 0 {
		ability = ability[i+1:]
	}
	var buf [8]string
	words := splitWords(prefold(ability), buf[:0])
	return len(words) > 0 && verbTable[words[0]] == "delete"
}
