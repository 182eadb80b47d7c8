"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export type UsageDay = { day: string; ok: number; clientErrors: number; serverErrors: number; errorRate: number };

/**
 * Requests per day (stacked: successful, 4xx, 5xx) with the error rate as a line on its own axis. The table under
 * it carries the same numbers for screen readers and for anyone who wants them exact.
 */
export function UsageChart({ days }: { days: UsageDay[] }) {
  const total = days.reduce((sum, day) => sum + day.ok + day.clientErrors + day.serverErrors, 0);
  return (
    <div className="h-72 w-full" role="figure" aria-label={`Requests per day over ${days.length} days, ${total} in total; the table below lists them per key.`}>
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 288 }}>
        <ComposedChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="day" tickFormatter={(day: string) => day.slice(5)} tick={{ fontSize: 12, fill: "#475569" }} />
          <YAxis yAxisId="count" allowDecimals={false} tick={{ fontSize: 12, fill: "#475569" }} />
          <YAxis yAxisId="rate" orientation="right" domain={[0, 1]} tickFormatter={(rate: number) => `${Math.round(rate * 100)}%`} tick={{ fontSize: 12, fill: "#475569" }} />
          <Tooltip formatter={(value, name) => (name === "Error rate" ? `${(Number(value) * 100).toFixed(1)}%` : value)} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar yAxisId="count" dataKey="ok" name="Successful" stackId="requests" fill="#0f766e" />
          <Bar yAxisId="count" dataKey="clientErrors" name="4xx" stackId="requests" fill="#d97706" />
          <Bar yAxisId="count" dataKey="serverErrors" name="5xx" stackId="requests" fill="#b91c1c" />
          <Line yAxisId="rate" dataKey="errorRate" name="Error rate" stroke="#334155" strokeWidth={2} dot={false} type="linear" />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
