"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Renders the page again from the server every few seconds while the tab is visible, so state that changes
 * elsewhere (the worker marking a receipt expired, an import finishing, a teammate's sandbox event) shows without a
 * reload. A refresh keeps client state (open dialogs, scroll), so the page can keep it running.
 */
export function AutoRefresh({ everyMs = 3_000 }: { everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, everyMs);
    return () => clearInterval(timer);
  }, [router, everyMs]);
  return null;
}
