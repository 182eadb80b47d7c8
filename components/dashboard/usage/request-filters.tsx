import { Button } from "@/components/ui/button";

const SELECT = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-teal-700 focus:outline-none focus:ring-2 focus:ring-teal-700/30";

type RequestFiltersProps = {
  days: number;
  status?: string;
  apiKeyId?: string;
  keys: { id: string; label: string }[];
};

/** The request log's filters: a plain GET form, so a filtered view is a link support can share. */
export function RequestFilters({ days, status, apiKeyId, keys }: RequestFiltersProps) {
  return (
    <form method="get" className="flex flex-col gap-3 sm:flex-row sm:items-end" aria-label="Filter requests">
      <input type="hidden" name="days" value={days} />
      <label className="text-sm font-medium text-slate-800 sm:w-48">
        Status
        <select name="status" defaultValue={status ?? ""} className={SELECT}>
          <option value="">Any status</option>
          <option value="2xx">2xx success</option>
          <option value="4xx">4xx client error</option>
          <option value="5xx">5xx server error</option>
          <option value="429">429 rate limited</option>
        </select>
      </label>
      <label className="text-sm font-medium text-slate-800 sm:w-64">
        API key
        <select name="key" defaultValue={apiKeyId ?? ""} className={SELECT}>
          <option value="">Any key</option>
          {keys.map((key) => (
            <option key={key.id} value={key.id}>
              {key.label}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" variant="secondary">
        Apply filters
      </Button>
    </form>
  );
}
