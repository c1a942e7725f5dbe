/** The part of autocannon's programmatic API (README "API") the benchmark uses; the package ships no types. */
declare module 'autocannon' {
  export interface Request {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }
  export interface Client {
    setRequests(requests: Request[]): void
  }
  export interface Options {
    url: string
    connections?: number
    duration?: number
    amount?: number
    timeout?: number
    method?: string
    headers?: Record<string, string>
    body?: string
    requests?: Request[]
    setupClient?: (client: Client) => void
  }
  export interface Histogram {
    average: number
    mean: number
    p50: number
    p90: number
    p99: number
    max: number
  }
  export interface Result {
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
  }
  export interface Instance extends PromiseLike<Result> {
    stop(): void
  }
  function autocannon(options: Options): Instance
  export default autocannon
}
