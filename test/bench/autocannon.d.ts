// The part of autocannon's programmatic API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string;
    path?: string;
    setupRequest?: (request: { path: string; method?: string }) => { path: string; method?: string };
  }
  interface AutocannonOptions {
    url: string;
    connections: number;
    duration: number;
    requests?: AutocannonRequest[];
  }
  function autocannon(options: AutocannonOptions): Promise<unknown>;
  export default autocannon;
}
