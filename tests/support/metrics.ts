/**
 * An instance's database metrics (METRICS_PORT, server/metrics.ts) as the Prometheus text gives them: each db_
 * series' name{labels} → value. Nothing (an empty map) while the instance does not answer.
 */
export async function scrapeDbMetrics(metricsUrl: string): Promise<Map<string, number>> {
  const text = await fetch(`${metricsUrl}/metrics`).then(
    (response) => response.text(),
    () => '',
  );
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('db_')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}
