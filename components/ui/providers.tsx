"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Toaster } from "sonner";

/** Client-side state for the dashboard: React Query's cache and the toast region. */
export function DashboardProviders({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: 1, refetchOnWindowFocus: false } } }));
  return (
    <QueryClientProvider client={client}>
      {children}
      {/* At the bottom: a toast at the top covered the header's Sign out for its four seconds. */}
      <Toaster position="bottom-right" richColors closeButton />
    </QueryClientProvider>
  );
}
