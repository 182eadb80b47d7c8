import { z } from "zod";

const email = z.string().trim().toLowerCase().email("Enter a valid email address.").max(254);

export const signInSchema = z.object({
  email,
  password: z.string().min(1, "Enter your password.").max(200),
});

export const signUpSchema = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(100),
  email,
  password: z.string().min(10, "Use at least 10 characters.").max(200, "Use at most 200 characters."),
});

export type SignInInput = z.infer<typeof signInSchema>;
export type SignUpInput = z.infer<typeof signUpSchema>;

export const applicationNameSchema = z.object({
  name: z.string().trim().min(1, "Give the application a name.").max(80, "Use at most 80 characters."),
});
export type ApplicationNameInput = z.infer<typeof applicationNameSchema>;
