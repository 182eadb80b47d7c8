-- A record's data is stored as the JSON text the API serves (json, not jsonb): PostgreSQL sends json as it is,
-- while every jsonb value is rebuilt as text on each read, which was most of a records page's server time. Nothing
-- queries inside a record's data, so jsonb's operators and indexes are not needed. Existing rows keep the same JSON
-- in jsonb's text layout; the next write of a record stores the canonical text its content hash is computed from.
-- AlterTable
ALTER TABLE "Record" ALTER COLUMN "data" SET DATA TYPE JSON USING "data"::json;
