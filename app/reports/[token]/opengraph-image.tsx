import { ImageResponse } from "next/og";
import { verdictText } from "@/components/conformance/report-view";
import { findReport } from "@/lib/conformance";

export const alt = "A Chartkey conformance report";
export const size = { width: 1200, height: 630 };
export const contentType = "image/png";

const TONE_COLOR = { success: "#047857", danger: "#b91c1c", warning: "#b45309", info: "#0369a1", neutral: "#334155" } as const;

/** The preview image of one report: the application, the verdict and the checks' counts. */
export default async function Image(props: { params: Promise<{ token: string }> }) {
  const { token } = await props.params;
  const report = await findReport(token);
  const verdict = report ? verdictText(report) : { label: "Not found", tone: "neutral" as const, detail: "No report at this address." };
  const count = (status: string) => report?.checks.filter((check) => check.status === status).length ?? 0;
  return new ImageResponse(
    (
      <div style={{ width: "100%", height: "100%", display: "flex", flexDirection: "column", justifyContent: "space-between", padding: 72, background: "#f8fafc", color: "#0f172a" }}>
        <div style={{ display: "flex", fontSize: 30, color: "#115e59", letterSpacing: 2 }}>CHARTKEY · CONFORMANCE REPORT</div>
        <div style={{ display: "flex", flexDirection: "column" }}>
          <div style={{ display: "flex", fontSize: 68, fontWeight: 700 }}>{report?.application.name ?? "Conformance report"}</div>
          <div style={{ display: "flex", marginTop: 24, fontSize: 56, fontWeight: 700, color: TONE_COLOR[verdict.tone] }}>{verdict.label}</div>
          <div style={{ display: "flex", marginTop: 12, fontSize: 32, color: "#334155" }}>{verdict.detail}</div>
        </div>
        <div style={{ display: "flex", fontSize: 30, color: "#334155" }}>
          {report ? `${report.scenario} · ${report.sync_mode} · ${count("passed")} passed · ${count("failed")} failed · ${count("inconclusive")} inconclusive` : ""}
        </div>
      </div>
    ),
    size,
  );
}
