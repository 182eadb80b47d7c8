import { PLATFORM_PROFILE, unknownPath } from "@/lib/api";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPath(PLATFORM_PROFILE);
