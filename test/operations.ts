import { z } from "zod";
import { defineOperation, PLATFORM_PROFILE, type AuthKind, type OperationDeclaration } from "@/lib/api";

type TestOperationInput<A extends AuthKind, P, Q, B> = Pick<OperationDeclaration<A, P & (z.ZodType | undefined), Q & (z.ZodType | undefined), B & (z.ZodType | undefined)>, "method" | "path" | "auth"> &
  Partial<OperationDeclaration<A, P & (z.ZodType | undefined), Q & (z.ZodType | undefined), B & (z.ZodType | undefined)>>;

/**
 * A platform operation for kit tests: the pipeline is exercised with the same declaration type real operations use,
 * with the documentation fields filled in.
 */
export function testOperation<
  A extends AuthKind,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(input: TestOperationInput<A, P, Q, B>): OperationDeclaration<A, P, Q, B> {
  return defineOperation<A, P, Q, B>({
    profile: PLATFORM_PROFILE,
    operationId: `test${input.method}${input.path.replace(/\W/g, "")}`,
    tag: "Test",
    summary: "A test operation",
    success: { status: 200, description: "Whatever the test returns.", schema: z.unknown() },
    errors: [],
    ...input,
  } as OperationDeclaration<A, P, Q, B>);
}
