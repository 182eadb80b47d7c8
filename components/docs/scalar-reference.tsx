"use client";

import dynamic from "next/dynamic";

/**
 * The reference, loaded in the browser after the page has hydrated: Scalar is a large Vue application that renders
 * nothing useful on the server, and waiting for it would hold up the page's own header and guide links.
 */
export const ScalarReference = dynamic(() => import("./scalar-api-reference").then((module) => module.ScalarApiReference), {
  ssr: false,
  loading: () => (
    <p role="status" className="px-4 py-6 text-sm text-slate-700 sm:px-6">
      Loading the API reference…
    </p>
  ),
});
