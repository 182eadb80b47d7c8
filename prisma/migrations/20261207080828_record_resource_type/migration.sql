-- The FHIR view's type of each record (issue 52, point 5): PostgreSQL computes it from the stored resource when a row
-- is written (and for every existing row now, as the column is added), so searches and exports filter by a stored
-- column instead of parsing every row's JSON text; no code writes it.
ALTER TABLE "Record" ADD COLUMN "resourceType" TEXT GENERATED ALWAYS AS ("resource"->>'resourceType') STORED;
