// One line describing the machine a benchmark ran on.
import { cpus, totalmem } from 'node:os';

export function machineLine(): string {
  const cpu = cpus();
  return `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, node ${process.version}, ${process.platform}/${process.arch}`;
}
