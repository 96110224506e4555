package proc

import (
	"slices"
	"testing"
)

func TestChildEnv(t *testing.T) {
	cases := []struct {
		name       string
		rules      envRules
		parent     []string
		configured map[string]string
		want       []string
	}{
		{
			name:   "only the allow-list passes",
			rules:  unixEnv,
			parent: []string{"PATH=/bin", "HOME=/home/u", "OPENAI_API_KEY=sk-secret", "AWS_SECRET=x", "LC_ALL=C", "TZ=UTC", "NODE_OPTIONS=--inspect"},
			want:   []string{"HOME=/home/u", "LC_ALL=C", "PATH=/bin", "TZ=UTC"},
		},
		{
			name:       "configured variables are added and win",
			rules:      unixEnv,
			parent:     []string{"PATH=/bin", "LANG=C"},
			configured: map[string]string{"PATH": "/opt/bin", "API_TOKEN": "t"},
			want:       []string{"API_TOKEN=t", "LANG=C", "PATH=/opt/bin"},
		},
		{
			name:   "malformed and look-alike names are dropped",
			rules:  unixEnv,
			parent: []string{"PATHX=/bin", "noequals", "XLC_ALL=C", "=weird"},
			want:   []string{},
		},
		{
			name:   "names are case-sensitive outside Windows",
			rules:  unixEnv,
			parent: []string{"Path=/bin", "home=/h"},
			want:   []string{},
		},
		{
			name:  "windows passes what programs need to run, in the parent's case",
			rules: windowsEnv,
			parent: []string{
				`Path=C:\Windows\system32;C:\Program Files\nodejs\`, `SystemRoot=C:\Windows`, `ComSpec=C:\Windows\system32\cmd.exe`,
				`APPDATA=C:\Users\u\AppData\Roaming`, `LOCALAPPDATA=C:\Users\u\AppData\Local`, `PATHEXT=.COM;.EXE;.BAT;.CMD`,
				`ProgramFiles(x86)=C:\Program Files (x86)`, `OPENAI_API_KEY=sk-secret`, `GITHUB_TOKEN=ghp_x`,
			},
			want: []string{
				`APPDATA=C:\Users\u\AppData\Roaming`, `ComSpec=C:\Windows\system32\cmd.exe`, `LOCALAPPDATA=C:\Users\u\AppData\Local`,
				`PATHEXT=.COM;.EXE;.BAT;.CMD`, `Path=C:\Windows\system32;C:\Program Files\nodejs\`,
				`ProgramFiles(x86)=C:\Program Files (x86)`, `SystemRoot=C:\Windows`,
			},
		},
		{
			name:       "on windows a configured PATH replaces the parent's Path",
			rules:      windowsEnv,
			parent:     []string{`Path=C:\Windows`, `TEMP=C:\Temp`},
			configured: map[string]string{"PATH": `D:\bin`, "temp": `D:\tmp`},
			want:       []string{`PATH=D:\bin`, `temp=D:\tmp`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.rules.childEnv(tc.parent, tc.configured)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestEnvValue(t *testing.T) {
	env := []string{"Path=/a", "PATH=/b"}
	if got := unixEnv.value(env, "PATH"); got != "/b" {
		t.Errorf("unix PATH = %q, want /b", got)
	}
	if got := windowsEnv.value(env, "PATH"); got != "/a" {
		t.Errorf("windows PATH = %q, want the first of either case, /a", got)
	}
	if got := windowsEnv.value(env, "PATHEXT"); got != "" {
		t.Errorf("windows PATHEXT = %q, want empty", got)
	}
}
