// Linux's /proc/<pid>/stat, read past the command name: that name sits in parentheses and may itself hold
// spaces and parentheses, so the fields are counted from the last ')'. Index 0 is the state (field 3 of
// proc(5)), 1 the parent's pid, 3 the session, 11 and 12 user and system time, 13 and 14 those of
// waited-for children, 16 the nice value.
export function statFieldsAfterCommand(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
