package retriever

import "testing"

func TestIgnoreRules(t *testing.T) {
	tests := []struct {
		name     string
		base     string
		rules    string
		path     string
		isDir    bool
		ignored  bool
		matching bool
	}{
		{name: "basename anywhere", rules: "*.log", path: "a/b/x.log", ignored: true, matching: true},
		{name: "no match", rules: "*.log", path: "a/b/x.txt"},
		{name: "negation wins when last", rules: "*.log\n!keep.log", path: "d/keep.log", matching: true},
		{name: "last rule wins", rules: "!keep.log\n*.log", path: "keep.log", ignored: true, matching: true},
		{name: "dir only skips files", rules: "build/", path: "build", ignored: false},
		{name: "dir only matches dirs", rules: "build/", path: "x/build", isDir: true, ignored: true, matching: true},
		{name: "anchored", rules: "/top.txt", path: "sub/top.txt"},
		{name: "anchored at root", rules: "/top.txt", path: "top.txt", ignored: true, matching: true},
		{name: "middle slash anchors", rules: "doc/*.pdf", path: "x/doc/a.pdf"},
		{name: "double star prefix", rules: "**/cache", path: "a/b/cache", isDir: true, ignored: true, matching: true},
		{name: "double star middle", rules: "a/**/z.txt", path: "a/b/c/z.txt", ignored: true, matching: true},
		{name: "double star middle zero dirs", rules: "a/**/z.txt", path: "a/z.txt", ignored: true, matching: true},
		{name: "trailing double star", rules: "logs/**", path: "logs/x/y", ignored: true, matching: true},
		{name: "star does not cross slash", rules: "a*z", path: "ab/cz"},
		{name: "question mark", rules: "file?.txt", path: "file1.txt", ignored: true, matching: true},
		{name: "bracket class", rules: "[ab].txt", path: "b.txt", ignored: true, matching: true},
		{name: "negated class", rules: "[!ab].txt", path: "c.txt", ignored: true, matching: true},
		{name: "comment and blank", rules: "# *.txt\n\n", path: "a.txt"},
		{name: "escaped hash", rules: `\#notes`, path: "#notes", ignored: true, matching: true},
		{name: "trailing spaces trimmed", rules: "a.txt   ", path: "a.txt", ignored: true, matching: true},
		{name: "nested base", base: "sub", rules: "*.tmp", path: "sub/x/y.tmp", ignored: true, matching: true},
		{name: "nested base elsewhere", base: "sub", rules: "*.tmp", path: "other/y.tmp"},
		{name: "unclosed bracket literal", rules: "a[b", path: "a[b", ignored: true, matching: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := parseIgnore(tc.base, tc.rules)
			matched, ignored := l.match(tc.path, tc.isDir)
			if matched != tc.matching || ignored != tc.ignored {
				t.Errorf("match(%q) = matched %v ignored %v, want %v %v", tc.path, matched, ignored, tc.matching, tc.ignored)
			}
		})
	}
}

func TestIgnoreStackDeeperWins(t *testing.T) {
	stack := ignoreStack{parseIgnore("", "*.log"), parseIgnore("keep", "!*.log")}
	if !stack.ignored("a.log", false) {
		t.Error("a.log should be ignored by the root rule")
	}
	if stack.ignored("keep/a.log", false) {
		t.Error("keep/a.log should be re-included by the nested rule")
	}
}

func FuzzIgnore(f *testing.F) {
	f.Add("*.log\n!keep.log\nbuild/\n/a/**/b\n[a-z]?.txt\n\\#x\n", "a/x/b", true)
	f.Add("[", "[", false)
	f.Add("**", "", true)
	f.Fuzz(func(t *testing.T, rules, path string, isDir bool) {
		l := parseIgnore("", rules) // must not panic, whatever the patterns
		matched, ignored := l.match(path, isDir)
		if ignored && !matched {
			t.Fatal("ignored without a matching rule")
		}
	})
}
