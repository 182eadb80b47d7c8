import { describe, expect, it } from "vitest";
import { NO_SYMBOL, parsePerfReport } from "./perf";

const REPORT = `# To display the perf.data header info, please use --header/--header-only options.
#
# Total Lost Samples: 0
#
# Samples: 12K of event 'cpu-clock:ppp'
# Event count (approx.): 24338983680
#
# Overhead  Symbol
# ........  ......................................
#
    20.50%  [k] _raw_spin_unlock_irqrestore
     9.25%  [.] printtup
     7.00%  [.] pglz_decompress
     4.25%  [k] finish_task_switch.isra.0
     1.00%  [.] 0x00000000004a1f2c
     8.00%  [.] 0x00007f4c68005f37
     0.50%  [k] __x64_sys_sendto

`;

describe("parsePerfReport", () => {
  it("reads the sample count, each symbol with its share and whether it is the kernel's (addresses without one as one), and the kernel's share in all", () => {
    const summary = parsePerfReport(REPORT, "postgres", 3);
    expect(summary).toEqual({
      processes: "postgres",
      samples: 12_000,
      kernelPercent: 25.25,
      symbols: [
        { name: "_raw_spin_unlock_irqrestore", kernel: true, percent: 20.5 },
        { name: "printtup", kernel: false, percent: 9.25 },
        { name: NO_SYMBOL, kernel: false, percent: 9 },
      ],
    });
  });

  it("reads an empty report (no samples of the command) as none", () => {
    expect(parsePerfReport("# Samples: 0  of event 'cpu-clock:ppp'\n#\n", "postgres", 5)).toEqual({ processes: "postgres", samples: 0, kernelPercent: 0, symbols: [] });
  });
});
