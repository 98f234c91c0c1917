// The floor workflow's one activity (bench/floor/workflow.ts): answers at once.
export async function touch(id: string): Promise<string> {
  return id;
}
