package service

import (
	"strings"
	"unicode/utf16"
)

// TaskDefinition is the scheduled task in Task Scheduler's XML (schema
// 1.2, Windows 7 and later), as text. Against what schtasks /Create gives
// a task by default it:
//
//   - never stops it (ExecutionTimeLimit PT0S, not 72 hours);
//   - starts it on battery power and keeps it running when the power cable
//     is pulled;
//   - runs it at normal priority (5), not below normal (7): it answers
//     clients;
//   - starts it at the logon of this user only (when Options.User names
//     them), with their normal rights, only while they are logged on;
//   - lets Task Scheduler start it again up to three times, a minute
//     apart, should `toolhub service run` itself fail to start.
func TaskDefinition(opts Options) string {
	var user string
	if opts.User != "" {
		user = "\n      <UserId>" + xmlText(opts.User) + "</UserId>"
	}
	return `<?xml version="1.0" encoding="UTF-16"?>
<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">
  <RegistrationInfo>
    <Description>toolhub MCP hub (serve --http), started at logon and kept running by toolhub service run</Description>
  </RegistrationInfo>
  <Triggers>
    <LogonTrigger>
      <Enabled>true</Enabled>` + user + `
    </LogonTrigger>
  </Triggers>
  <Principals>
    <Principal id="Author">` + user + `
      <LogonType>InteractiveToken</LogonType>
      <RunLevel>LeastPrivilege</RunLevel>
    </Principal>
  </Principals>
  <Settings>
    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>
    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>
    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>
    <AllowHardTerminate>true</AllowHardTerminate>
    <StartWhenAvailable>false</StartWhenAvailable>
    <RunOnlyIfNetworkAvailable>false</RunOnlyIfNetworkAvailable>
    <IdleSettings>
      <StopOnIdleEnd>false</StopOnIdleEnd>
      <RestartOnIdle>false</RestartOnIdle>
    </IdleSettings>
    <AllowStartOnDemand>true</AllowStartOnDemand>
    <Enabled>true</Enabled>
    <Hidden>false</Hidden>
    <RunOnlyIfIdle>false</RunOnlyIfIdle>
    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>
    <Priority>5</Priority>
    <RestartOnFailure>
      <Interval>PT1M</Interval>
      <Count>3</Count>
    </RestartOnFailure>
  </Settings>
  <Actions Context="Author">
    <Exec>
      <Command>` + xmlText(opts.Executable) + `</Command>
      <Arguments>` + xmlText(TaskArguments(opts)) + `</Arguments>
    </Exec>
  </Actions>
</Task>
`
}

// TaskXML is TaskDefinition as schtasks /XML reads it: UTF-16 (little
// endian, with a byte order mark) and CRLF line ends, as Task Scheduler
// itself exports a task.
func TaskXML(opts Options) []byte {
	text := strings.ReplaceAll(TaskDefinition(opts), "\n", "\r\n")
	units := utf16.Encode([]rune(text))
	out := make([]byte, 0, 2+2*len(units))
	out = append(out, 0xFF, 0xFE)
	for _, u := range units {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}
