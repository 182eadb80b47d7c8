import { redirect } from "next/navigation";

export default function GuidesIndex() {
  redirect("/docs/guides/quickstart");
}
