/// Durations in words ("3 days, 4 hours"), translated with plural forms.
public enum Durations {
    public static func words(seconds: Double) -> String {
        let total = Int(max(seconds, 0).rounded(.down))
        let days = total / 86_400, hours = total % 86_400 / 3600, minutes = total % 3600 / 60
        // Literal strings in each L(…) call, so xgettext can extract them.
        let dayText = L("%d day", "%d days", counting: days)
        let hourText = L("%d hour", "%d hours", counting: hours)
        let minuteText = L("%d minute", "%d minutes", counting: minutes)
        if days > 0 { return hours > 0 ? "\(dayText), \(hourText)" : dayText }
        if hours > 0 { return minutes > 0 ? "\(hourText), \(minuteText)" : hourText }
        if minutes > 0 { return minuteText }
        return L("less than a minute")
    }
}
