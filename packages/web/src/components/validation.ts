import { zodResolver } from '@hookform/resolvers/zod';
import { installSerbianValidationMessages } from '@trasa/domain';

/**
 * zod's own messages are English: the domain's Serbian ones are installed once, when the first module that
 * validates with zod loads — the forms, which take zodResolver from here, and the screens that check a
 * value with a schema themselves, which import this module. FullApp installed them as it loaded, which
 * brought zod and the domain's schemas (26 KB) into every screen's first load and its evaluation into the
 * first visit's longest task (issue 13 item 3); they now load with the first form.
 */
installSerbianValidationMessages();

export { zodResolver };
