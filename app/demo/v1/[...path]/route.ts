import { demoNotFound } from "@/lib/demo/demo-route";

export const dynamic = "force-dynamic";

const notFound = demoNotFound();
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
