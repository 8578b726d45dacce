// The little of autocannon's API the api bench uses (it ships no types).
declare module 'autocannon' {
  interface Histogram { average: number; p50: number; p99: number; max: number }
  interface Result { requests: Histogram & { total: number }; latency: Histogram; errors: number; timeouts: number; non2xx: number; '2xx': number; '3xx': number }
  interface Client { setHeaders(headers: Record<string, string>): void; setHeadersAndBody(headers: Record<string, string>, body: string): void }
  interface Options {
    url: string; connections?: number; duration?: number; method?: string; body?: string; headers?: Record<string, string>;
    setupClient?: (client: Client) => void;
    requests?: {
      method?: string; path?: string; body?: string; headers?: Record<string, string>;
      setupRequest?: (req: { headers: Record<string, string> }, context: Record<string, unknown>) => unknown;
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }[];
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
