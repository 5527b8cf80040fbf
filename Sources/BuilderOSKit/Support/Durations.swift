/// Durations in words ("3 days, 4 hours"), translated with plural forms.
public enum Durations {
    public static func words(seconds: Double) -> String {
        let total = Int(max(seconds, 0).rounded(.down))
        let days = total / 86_400, hours = total % 86_400 / 3600, minutes = total % 3600 / 60
        // Literal strings in each L(…) call, so xgettext can extract them.
        let dayText = String(format: L("%d day", "%d days", count: days), days)
        let hourText = String(format: L("%d hour", "%d hours", count: hours), hours)
        let minuteText = String(format: L("%d minute", "%d minutes", count: minutes), minutes)
        if days > 0 { return hours > 0 ? "\(dayText), \(hourText)" : dayText }
        if hours > 0 { return minutes > 0 ? "\(hourText), \(minuteText)" : hourText }
        if minutes > 0 { return minuteText }
        return L("less than a minute")
    }
}
