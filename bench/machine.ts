import { readFileSync } from 'node:fs';
import os from 'node:os';

/** What the figures were measured on: they mean little without it (2 shared cores here). */
export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  kernel: string;
  loadAtStart: number[];
}

export function machineInfo(): MachineInfo {
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpuModel;
  } catch {
    // Not Linux: os.cpus() is good enough.
  }
  return {
    cpus: os.availableParallelism(),
    cpuModel: cpuModel.trim(),
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    loadAtStart: loadAverage(),
  };
}

export function loadAverage(): number[] {
  return os.loadavg().map((n) => Math.round(n * 100) / 100);
}
