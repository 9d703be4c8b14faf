export { Workbench, READ_ONLY_MEMBER_NOTE, type WorkbenchProps } from './Workbench';
