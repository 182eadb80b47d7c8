import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, parseOptions, QUICK_OPTIONS, smallSubjects } from "./options";

describe("bench options", () => {
  it("default to the full size: 10,000 subjects of 100 records, then 10,000 records", () => {
    const options = parseOptions([], {});
    expect(options).toEqual(DEFAULT_OPTIONS);
    expect(options.subjects * options.recordsPerSubject).toBe(1_000_000);
    expect(smallSubjects(options)).toBe(100);
  });

  it("take BENCH_* variables, and flags over them", () => {
    const options = parseOptions(["--subjects", "300", "--duration=5"], { BENCH_SUBJECTS: "50", BENCH_SMALL_RECORDS: "1_000", BENCH_OUT: "/tmp/x" });
    expect(options).toMatchObject({ subjects: 300, duration: 5, smallRecords: 1000, out: "/tmp/x" });
    expect(() => parseOptions(["--cpu-prof", "1"], {})).toThrow(/unknown option --cpu-prof/);
  });

  it("--quick shrinks every measurement, and flags beside it still win", () => {
    const quick = parseOptions(["--quick"], {});
    expect(quick).toMatchObject({ ...QUICK_OPTIONS, quick: true });
    expect(parseOptions(["--quick", "--duration", "5", "--import-sizes", "1_000,3000"], {})).toMatchObject({ duration: 5, importSizes: [1000, 3000], subjects: 200 });
    expect(parseOptions([], { BENCH_QUICK: "1" }).quick).toBe(true);
    expect(() => parseOptions(["--import-sizes", "10,x"], {})).toThrow(/import-sizes/);
  });

  it("--only measures the parts named, all of them otherwise", () => {
    expect(parseOptions([], {}).parts).toEqual(["pages", "imports", "webhooks", "fhir"]);
    expect(parseOptions(["--only", "pages"], {}).parts).toEqual(["pages"]);
    expect(parseOptions(["--only", "fhir"], {}).parts).toEqual(["fhir"]);
    expect(parseOptions([], { BENCH_ONLY: "webhooks,pages" }).parts).toEqual(["pages", "webhooks"]);
    expect(() => parseOptions(["--only", "page"], {})).toThrow(/only must name parts/);
  });

  it("run PostgreSQL with a 3 GB cache unless --postgres-cache names another size or default", () => {
    expect(parseOptions([], {}).postgresCache).toBe("3GB");
    expect(parseOptions(["--postgres-cache", "default"], {}).postgresCache).toBe("default");
    expect(parseOptions([], { BENCH_POSTGRES_CACHE: "512MB" }).postgresCache).toBe("512MB");
    expect(() => parseOptions(["--postgres-cache", "lots"], {})).toThrow(/postgres-cache must be a size/);
  });

  it("refuse unknown flags and sizes that are not whole numbers of at least 1", () => {
    expect(() => parseOptions(["--subject", "3"], {})).toThrow(/unknown option --subject/);
    expect(() => parseOptions(["--duration"], {})).toThrow(/needs a value/);
    expect(() => parseOptions([], { BENCH_SUBJECTS: "1e3x" })).toThrow(/subjects must be a whole number/);
    expect(() => parseOptions(["--connections", "0"], {})).toThrow(/connections/);
    expect(() => parseOptions(["--small-records", "10"], {})).toThrow(/small-records/);
  });
});
