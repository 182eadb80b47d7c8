import { unknownPath } from "@/lib/api";
import { DEMO_PROFILE } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPath(DEMO_PROFILE);
