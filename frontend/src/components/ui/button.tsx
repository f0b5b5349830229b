import { Slot } from "@radix-ui/react-slot";
import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";

const buttonVariants = cva(
	"inline-flex items-center justify-center gap-2 rounded-md text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2 disabled:pointer-events-none disabled:opacity-50",
	{
		variants: {
			variant: {
				default: "bg-blue-600 text-white hover:bg-blue-700",
				outline: "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50",
				ghost: "text-slate-700 hover:bg-slate-100",
				danger: "bg-red-600 text-white hover:bg-red-700",
			},
			size: { default: "h-9 px-4 py-2", sm: "h-8 px-3", icon: "h-9 w-9" },
		},
		defaultVariants: { variant: "default", size: "default" },
	},
);

type ButtonProps = ComponentProps<"button"> & VariantProps<typeof buttonVariants> & { asChild?: boolean };

export function Button({ className, variant, size, asChild = false, type = "button", ...props }: ButtonProps) {
	const Component = asChild ? Slot : "button";
	return <Component className={cn(buttonVariants({ variant, size }), className)} type={asChild ? undefined : type} {...props} />;
}
