// Types of synapsefake/jest/setup and synapsefake/jest/teardown.
declare function hook(): Promise<void>;
export = hook;
