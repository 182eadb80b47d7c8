import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ReportView, verdictText } from "@/components/conformance/report-view";
import { findReport } from "@/lib/conformance";
import { platformOrigin } from "@/lib/config";

type Props = { params: Promise<{ token: string }> };

/** Title, description and the generated image, so a shared link previews with its verdict. */
export async function generateMetadata(props: Props): Promise<Metadata> {
  const { token } = await props.params;
  const report = await findReport(token);
  if (!report) return { title: "Conformance report not found", robots: { index: false } };
  const verdict = verdictText(report);
  const title = `${report.application.name}: conformance ${verdict.label.toLowerCase()}`;
  const description = `Chartkey conformance run on the ${report.scenario} scenario (${report.sync_mode}). ${verdict.detail}`;
  const image = { url: `/reports/${token}/opengraph-image`, width: 1200, height: 630, alt: `${title}. ${verdict.detail}` };
  return {
    metadataBase: new URL(platformOrigin()),
    title,
    description,
    robots: { index: false },
    openGraph: { title, description, type: "article", siteName: "Chartkey", url: `/reports/${token}`, images: [image] },
    twitter: { card: "summary_large_image", title, description, images: [image] },
  };
}

export default async function ReportPage(props: Props) {
  const { token } = await props.params;
  const report = await findReport(token);
  if (!report) notFound();
  return (
    <main className="min-h-screen bg-slate-50 print:bg-white">
      <ReportView report={report} jsonUrl={`/conformance/reports/${token}`} />
    </main>
  );
}
