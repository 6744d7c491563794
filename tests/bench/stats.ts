/** The p-th percentile (0–100) of a list of numbers, by nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}

/** Times `run` `count` times after `warmup` untimed runs; milliseconds. */
export async function timeCalls(run: () => Promise<void>, count: number, warmup = 20): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await run();
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times;
}

export function printRow(label: string, times: number[]) {
  const line = `${label.padEnd(44)} n=${String(times.length).padStart(5)}  p50=${percentile(times, 50).toFixed(2).padStart(7)} ms  p95=${percentile(times, 95).toFixed(2).padStart(7)} ms`;
  process.stdout.write(`${line}\n`);
}
