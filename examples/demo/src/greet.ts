export interface Greeting {
  name: string;
  excited: boolean;
}

export function greet({ name, excited }: Greeting): string {
  const text = `Hello, ${name}`;
  return excited ? `${text}!` : `${text}.`;
}
